/** PATCH /participants/{user_id}/profile_photo: the multipart upload (see photo-upload.ts). */

import { chance } from '../../faults/faults.js';
import { PARTICIPANT_SCOPED, type RouteDef } from '../../target-app.js';
import { replyJson } from '../dispatch.js';
import { receivePhoto } from '../photo-upload.js';
import { problems } from '../problem.js';
import { participantOf } from './lookup.js';

const EXTENSION = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;

export const photoRoutes: RouteDef[] = [
  {
    method: 'PATCH',
    pattern: '/participants/:userId/profile_photo',
    access: PARTICIPANT_SCOPED,
    handler: async (ctx) => {
      const participant = participantOf(ctx);
      // Decided before the body is read, so an injected 500 never changes the photo.
      if (chance(ctx.app.faults.errorRate)) throw problems.injected('injected fault: error-rate');
      const kind = await receivePhoto(ctx.req);
      const photoUrl = await ctx.app.commands.execute({ kind: 'set-photo', participantId: participant.userId, extension: EXTENSION[kind] });
      replyJson(ctx, 200, { userId: participant.userId, photoUrl });
    },
  },
];
