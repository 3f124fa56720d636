/**
 * The photo-upload and tag-link throughput scenarios and the request-level probes
 * (docs/throughput.md). The run starts all three beside the chat streams; each gates itself
 * on the profile (`photoUpload.enabled`, `tagLink.enabled`).
 */

export { LATE_SLOT_MS } from './open-model.js';
export { photoUploadScenario } from './photo-upload-scenario.js';
export { probesScenario } from './probes-scenario.js';
export { NO_COACH_TOKEN_REASON, tagLinkScenario } from './tag-link-scenario.js';
