/**
 * A small purpose-built target for the photo and tag endpoints, correct by default, with one
 * switch per misbehaviour the reference target cannot fake. Each test flips one switch and
 * expects exactly the matching check to fail.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import busboy from 'busboy';
import type { RunFixtures } from '../../src/engine/scenario.js';
import { GOOD_HEADERS, readBody, sendJson, sendProblem, startServer, type TestServer } from './throughput-helpers.js';

export interface Misbehaviour {
  /** Serves requests that carry no X-API-Key. */
  acceptWithoutKey?: boolean;
  /** Returns ids for names that already exist (and "creates" them again). */
  returnExisting?: boolean;
  /** Error answers as text/plain instead of application/problem+json. */
  textErrors?: boolean;
  /** Reads the image from `filename` whatever the `name` field says. */
  ignoreOverride?: boolean;
  /** Lets participant tokens create and link tags. */
  participantsMayTag?: boolean;
  /** Refuses a participant's create-and-link with 401 instead of 403 (a role rule many APIs answer so). */
  roleRefusedWith401?: boolean;
  /** Leaves Cache-Control off successful photo answers. */
  photoWithoutCacheControl?: boolean;
  /** Answers create-and-link with an object instead of an array of ids. */
  tagsNotArray?: boolean;
}

export interface FakeTarget extends TestServer {
  fixtures: RunFixtures;
  requests: number;
}

const API_KEY = 'fake-api-key-0001';
const COACH = 'coach-token-0001';

function readPhotoPart(req: IncomingMessage, ignoreOverride: boolean): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const files = new Map<string, Buffer[]>();
    let chosen = 'filename';
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      if (name === 'name' && !ignoreOverride) chosen = value;
    });
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      files.set(name, chunks);
      stream.on('data', (c: Buffer) => chunks.push(c));
    });
    parser.on('close', () => {
      const chunks = files.get(chosen);
      resolve(chunks ? Buffer.concat(chunks) : null);
    });
    parser.on('error', () => resolve(null));
    req.pipe(parser);
  });
}

export async function startFakeTarget(bad: Misbehaviour = {}): Promise<FakeTarget> {
  const participants = [1, 2, 3].map((i) => ({ userId: `p-${i}`, token: `participant-token-${i}`, chatSessionIds: [`cs-${i}`] }));
  const roleOf = new Map<string, string>([[COACH, 'coach'], ...participants.map((p) => [p.token, p.userId] as [string, string])]);
  const tags = new Map<string, string>();
  const problem = (res: ServerResponse, status: number, detail: string): void =>
    bad.textErrors ? sendJson(res, status, detail, 'text/plain') : sendProblem(res, status, detail);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    fake.requests++;
    const who = roleOf.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.headers['x-api-key'] !== API_KEY && !(bad.acceptWithoutKey && req.headers['x-api-key'] === undefined)) {
      req.resume();
      return problem(res, 401, 'missing or wrong API key');
    }
    if (who === undefined) return problem(res, 401, 'unknown token');
    const photo = /^\/api\/v1\/participants\/([^/]+)\/profile_photo$/.exec(req.url ?? '');
    if (req.method === 'PATCH' && photo) {
      if (who !== photo[1]) return problem(res, 403, 'not your profile');
      const image = await readPhotoPart(req, bad.ignoreOverride === true);
      if (image === null) return problem(res, 400, 'no image part');
      const extension = image[0] === 0xff ? 'jpg' : image[0] === 0x89 ? 'png' : image.toString('latin1', 0, 4) === 'RIFF' ? 'webp' : null;
      if (extension === null) return problem(res, 415, 'not an image');
      const headers: Record<string, string> = { ...GOOD_HEADERS };
      if (bad.photoWithoutCacheControl) delete headers['cache-control'];
      return sendJson(res, 200, { userId: who, photoUrl: `https://photos.example/${who}.${extension}` }, 'application/json', headers);
    }
    if (req.method === 'POST' && req.url === '/api/v1/admin/tags/new_and_link/participant') {
      const body = JSON.parse((await readBody(req)).toString('utf8')) as { tags: string[] };
      if (who !== 'coach' && !bad.participantsMayTag) return problem(res, bad.roleRefusedWith401 ? 401 : 403, 'coach or connector only');
      const ids: string[] = [];
      for (const name of body.tags) {
        const existing = tags.get(name);
        if (existing && !bad.returnExisting) continue;
        const id = existing ?? `tag-${tags.size + 1}`;
        tags.set(name, id);
        ids.push(id);
      }
      return sendJson(res, 200, bad.tagsNotArray ? { created: ids } : ids);
    }
    req.resume();
    return problem(res, 404, 'no such route');
  };

  const server = await startServer((req, res) => void handle(req, res));
  const fake: FakeTarget = { ...server, requests: 0, fixtures: { apiKey: API_KEY, coachToken: COACH, participants } };
  return fake;
}
