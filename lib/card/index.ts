/** lib/card: TODO door doc */

export { cardRoute } from './route.js';
