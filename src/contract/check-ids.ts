/** Conformance check ids, fixed by docs/design.md §5. Order is the report order. */
export const CHECK_IDS = [
  'stream.open',
  'stream.keepalive.cadence',
  'stream.stall',
  'stream.session.isolation',
  'stream.event.schema',
  'stream.message.delivery',
  'stream.resume',
  'photo.upload',
  'photo.fieldname.override',
  'tags.link',
  'tags.existing.ignored',
  'tags.role.required',
  'requests.expectations',
  'auth.apikey.required',
  'auth.token.refresh',
  'errors.problem_json',
  'load.achieved',
  'generator.healthy',
] as const;

export type CheckId = (typeof CHECK_IDS)[number];

export type CheckStatus = 'pass' | 'fail' | 'skip';
