import { ArnFormat, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { ERROR_TABLE } from '../../../lib/errors/index.js';

/**
 * The regional WAF web ACL attached to the API's stage, and its log (docs/deployment.md#waf).
 * Built in the stack's scope.
 */

/** WAF inspects at most this much of a body; only LARGE_BODY_PATHS may carry more. */
export const WAF_BODY_LIMIT_BYTES = 8 * 1024;

/**
 * The routes whose function bounds its own body: the letter (a 4 MiB PDF) and the insurance card (two
 * images of 2 MiB each, docs/finding-coverage.md#images).
 */
export const LARGE_BODY_PATHS = ['/api/generate-letter', '/api/insurance-card/v1'] as const;

export interface WafProps {
  /** Names the web ACL, its metrics and its log group: the stack's id. */
  name: string;
  /** The stage the web ACL is attached to. */
  stage: Stage;
  /** Requests one IP address may send in any 5-minute window. */
  ratePerIp: number;
  /** Encrypts the WAF log. */
  key: IKey;
  logRetention: RetentionDays;
}

export class Waf {
  readonly webAcl: CfnWebACL;

  constructor(stack: Stack, props: WafProps) {
    const { name } = props;
    this.webAcl = new CfnWebACL(stack, 'WebAcl', {
      name: `${name}-api`,
      description: 'Managed common and known-bad-inputs rules, a per-IP rate limit, and a body-size limit outside the letter route',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `${name}-api`, sampledRequestsEnabled: false },
      customResponseBodies: {
        tooManyRequests: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ message: 'Too Many Requests' }) },
        payloadTooLarge: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ message: ERROR_TABLE.PAYLOAD_TOO_LARGE.message, code: 'PAYLOAD_TOO_LARGE' }),
        },
      },
      rules: wafRules(name, props.ratePerIp),
    });
    const association = new CfnWebACLAssociation(stack, 'WebAclAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
    association.node.addDependency(props.stage);
    // WAF logs name the rule that matched. The Authorization header is redacted; WAF never logs bodies.
    const logName = `aws-waf-logs-${name}`;
    const logs = new LogGroup(stack, 'WafLogs', {
      logGroupName: logName,
      retention: props.logRetention,
      encryptionKey: props.key,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const logging = new CfnLoggingConfiguration(stack, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [stack.formatArn({ service: 'logs', resource: 'log-group', resourceName: logName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
    });
    logging.node.addDependency(logs);
  }
}

/**
 * The web ACL's rules, in evaluation order: a per-IP rate limit; the AWS common rule set with its
 * 8 KB body-size rule only counting (it would refuse every letter PDF); our own body-size rule
 * that applies that 8 KB limit everywhere except the letter route; and known bad inputs.
 */
export function wafRules(id: string, ratePerIp: number): CfnWebACL.RuleProperty[] {
  const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `${id}-${name}`, sampledRequestsEnabled: false });
  const block = (status: number, bodyKey: string, headers: { name: string; value: string }[] = []) => ({
    block: {
      customResponse: { responseCode: status, customResponseBodyKey: bodyKey, responseHeaders: [{ name: 'cache-control', value: 'no-store' }, ...headers] },
    },
  });
  const managed = (name: string, priority: number, overrides?: CfnWebACL.RuleActionOverrideProperty[]): CfnWebACL.RuleProperty => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...(overrides ? { ruleActionOverrides: overrides } : {}) } },
    visibilityConfig: visibility(name),
  });
  return [
    {
      name: 'PerIpRateLimit',
      priority: 0,
      action: block(429, 'tooManyRequests', [{ name: 'retry-after', value: '60' }]),
      statement: { rateBasedStatement: { limit: ratePerIp, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
      visibilityConfig: visibility('PerIpRateLimit'),
    },
    managed('AWSManagedRulesCommonRuleSet', 1, [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }]),
    {
      name: 'BodySizeOutsideLetterRoute',
      priority: 2,
      action: block(413, 'payloadTooLarge'),
      statement: {
        andStatement: {
          statements: [
            // Bodies past what WAF inspects count as matching, so "larger than 8 KB" is decided exactly.
            {
              sizeConstraintStatement: {
                fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
                comparisonOperator: 'GT',
                size: WAF_BODY_LIMIT_BYTES,
                textTransformations: [{ priority: 0, type: 'NONE' }],
              },
            },
            {
              notStatement: {
                statement: {
                  orStatement: {
                    statements: LARGE_BODY_PATHS.map((path) => ({
                      byteMatchStatement: {
                        fieldToMatch: { uriPath: {} },
                        positionalConstraint: 'ENDS_WITH',
                        searchString: path,
                        textTransformations: [{ priority: 0, type: 'NONE' }],
                      },
                    })),
                  },
                },
              },
            },
          ],
        },
      },
      visibilityConfig: visibility('BodySizeOutsideLetterRoute'),
    },
    managed('AWSManagedRulesKnownBadInputsRuleSet', 3),
  ];
}
