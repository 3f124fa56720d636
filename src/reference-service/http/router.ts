/**
 * A small segment-matching router over the ~35 routes of the target. Routes are tried in
 * declaration order, so a static segment (`chat_sessions/search`) declared before a
 * parameter (`chat_sessions/:id`) wins.
 */
import type { RouteDef } from '../target-app.js';
import { problems } from './problem.js';

/** The result of matching a method and path. */
export type RouteMatch =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

interface CompiledRoute {
  def: RouteDef;
  segments: string[];
}

/** Matches requests against the route list. */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  constructor(defs: readonly RouteDef[]) {
    for (const def of defs) this.routes.push({ def, segments: def.pattern.split('/').filter(Boolean) });
  }

  /** Matches a raw path below /api/v1 (no query). Throws 400 on bad percent-encoding. */
  match(method: string, rawPath: string): RouteMatch {
    let segments: string[];
    try {
      segments = rawPath.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw problems.badRequest('the path is not valid percent-encoding');
    }
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.def.method === method) return { kind: 'found', route: route.def, params };
      allowed.push(route.def.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed: [...new Set(allowed)] } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const want = pattern[i] as string;
    const got = path[i] as string;
    if (want.startsWith(':')) params[want.slice(1)] = got;
    else if (want !== got) return null;
  }
  return params;
}
