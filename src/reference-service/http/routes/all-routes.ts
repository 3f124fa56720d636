/** Every route of the target, in match order (static segments before parameters). */
import type { RouteDef } from '../../target-app.js';
import { activityRoutes } from './activity-routes.js';
import { chatMessageRoutes } from './chat-message-routes.js';
import { chatSessionRoutes } from './chat-session-routes.js';
import { deprecatedRoutes } from './deprecated-routes.js';
import { memberRoutes } from './member-routes.js';
import { participantRoutes } from './participant-routes.js';
import { photoRoutes } from './photo-routes.js';
import { streamRoutes } from './stream-routes.js';
import { tagRoutes } from './tag-routes.js';

export const ALL_ROUTES: readonly RouteDef[] = [
  ...streamRoutes,
  ...chatSessionRoutes,
  ...chatMessageRoutes,
  ...memberRoutes,
  ...photoRoutes,
  ...tagRoutes,
  ...deprecatedRoutes,
  ...participantRoutes,
  ...activityRoutes,
];
