/**
 * Builds the requests of one template (a request kind or a setup step, docs/design.md §2.15)
 * from the run's fixtures: request `seq` goes to participant `seq mod n` and that
 * participant's sessions in turn. Templates are compiled once; each request fills them.
 */
import type { RequestTemplate } from '../../contract/profile/profile.js';
import { compileTemplate, fillTemplate, jsonEscape, SETUP_PREFIX, type TemplatePart } from '../../contract/profile/request-template.js';
import type { RunFixtures } from '../../engine/scenario.js';
import type { HttpRequestSpec } from '../throughput/http-exchange.js';
import { buildMultipart } from '../throughput/multipart-body.js';
import { ACCEPT } from '../throughput/photo-workload.js';

/** What a request's values come from. */
export interface BuildContext {
  /** The API base path (`/api/v1`). */
  basePath: string;
  fixtures: RunFixtures;
  /** Values setup requests captured (`{setup.NAME}`). */
  captured: ReadonlyMap<string, string>;
  /** This process's run tag, part of `{unique}`. */
  runTag: string;
  /** The kind's name (or `setup`), part of `{unique}`. */
  name: string;
}

interface CompiledBody {
  kind: 'json' | 'multipart';
  json?: TemplatePart[];
  parts?: Array<{ name: string; value: TemplatePart[]; filename?: string; contentType?: string }>;
}

/** Builds request `seq` of one template; throws when a value the template needs is missing (no coach token). */
export type RequestBuilder = (seq: number) => HttpRequestSpec;

const digitsEnding = (id: string): string => /(\d+)$/.exec(id)?.[1] ?? id;

export function requestBuilder(template: RequestTemplate, ctx: BuildContext): RequestBuilder {
  const captured = new Set(ctx.captured.keys());
  const path = compileTemplate(template.path, 'path', captured);
  const headers = Object.entries(template.headers).map(([name, value]) => [name, compileTemplate(value, name, captured)] as const);
  const body: CompiledBody | null =
    template.body === null
      ? null
      : 'json' in template.body
        ? { kind: 'json', json: compileTemplate(template.body.json, 'body', captured) }
        : {
            kind: 'multipart',
            parts: template.body.multipart.map((part) => ({ ...part, value: compileTemplate(part.value, part.name, captured) })),
          };
  const { fixtures } = ctx;
  return (seq) => {
    const participant = fixtures.participants[seq % fixtures.participants.length];
    if (participant === undefined) throw new Error('no participants in the fixtures');
    const round = Math.floor(seq / fixtures.participants.length);
    const value = (name: string): string => {
      if (name.startsWith(SETUP_PREFIX)) return ctx.captured.get(name.slice(SETUP_PREFIX.length)) ?? '';
      switch (name) {
        case 'userId':
          return participant.userId;
        case 'userNumber':
          return digitsEnding(participant.userId);
        case 'sessionId':
          return participant.chatSessionIds[round % participant.chatSessionIds.length] ?? '';
        case 'participantToken':
          return participant.token;
        case 'coachToken':
          return fixtures.coachToken ?? '';
        case 'apiKey':
          return fixtures.apiKey;
        case 'seq':
          return String(seq);
        case 'unique':
          return `cb-${ctx.runTag}-${ctx.name}-${seq}`;
        default:
          return '';
      }
    };
    const out: Record<string, string> = { accept: ACCEPT, 'x-api-key': fixtures.apiKey };
    if (template.credential === 'participant') out.authorization = `Bearer ${participant.token}`;
    if (template.credential === 'coach') out.authorization = `Bearer ${fixtures.coachToken ?? ''}`;
    for (const [name, parts] of headers) out[name] = fillTemplate(parts, value);
    let payload: string | Buffer = '';
    if (body?.kind === 'json') {
      payload = fillTemplate(body.json ?? [], value, jsonEscape);
      out['content-type'] ??= 'application/json';
    } else if (body?.kind === 'multipart') {
      const form = buildMultipart(
        (body.parts ?? []).map((part) => ({
          name: part.name,
          data: Buffer.from(fillTemplate(part.value, value), 'utf8'),
          ...(part.filename !== undefined ? { fileName: part.filename } : {}),
          ...(part.contentType !== undefined ? { contentType: part.contentType } : {}),
        })),
      );
      payload = form.body;
      out['content-type'] = form.contentType;
    }
    return { method: template.method, path: `${ctx.basePath}${fillTemplate(path, value, encodeURIComponent)}`, headers: out, body: payload };
  };
}
