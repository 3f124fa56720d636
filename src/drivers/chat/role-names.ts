/** The counters both stream roles have, by role (CHAT also holds the chat-only ones). */
import type { StreamRole } from '../../engine/sse-reader.js';
import { CHAT, MAIN } from '../../metrics/names.js';

export const ROLE_NAMES: Record<StreamRole, Record<'opened' | 'openFailed' | 'dropped' | 'open', string>> = { chat: CHAT, main: MAIN };
