import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { EligibilityStack } from './stack.js';

/**
 * CDK entry (cdk.json "app"). The stack is environment-agnostic: account and region come from
 * the deploying credentials, so `cdk synth` runs offline with none. Every synth runs the
 * AwsSolutions and HIPAA Security packs; an unacknowledged error finding fails the synth.
 */
export function buildApp(app = new App()): App {
  new EligibilityStack(app, app.node.tryGetContext('stackName') ?? 'EligibilityService', {
    description: 'Eligibility, COB and letter of medical necessity API (HIPAA workload)',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }), new HIPAASecurityChecks(app, { verbose: true }));
  return app;
}

buildApp().synth();
