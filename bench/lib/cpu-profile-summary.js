// Where a V8 CPU profile (.cpuprofile, from node --cpu-prof) spent its samples, by owner: a
// package under node_modules, one of our dist/ folders, a Node built-in module, or V8 itself
// (garbage collector, "(program)": compiling and runtime calls not charged to a function).
// Native functions without a script (writev, a Buffer copy) are charged to the owner of the JS
// that called them, so a socket write made by undici counts as undici's.

const IDLE = '(idle)';

/** The owner of one script URL: "undici", "coachbench:metrics", "node:net", ... */
export function ownerOfUrl(url) {
  if (url.startsWith('node:')) {
    const path = url.slice('node:'.length).replace(/^internal\//, '');
    return `node:${path.split('/')[0]}`;
  }
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules) return inModules[1];
  const ours = /\/(dist|bin|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (ours) return ours[2] && ours[1] === 'dist' ? `coachbench:${ours[2]}` : `coachbench:${ours[1]}`;
  return url === '' ? 'native' : url;
}

/** Self time per profile node (µs), from its samples and their time deltas. */
function selfMicros(profile) {
  const self = new Map();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  return self;
}

/**
 * Self time by owner and by function, in µs, samples where the thread was idle left out.
 * `window` ({ fromUs, toUs } relative to the profile's start) keeps only samples inside it.
 */
export function summariseProfile(profile, window = null) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ownerOf = new Map();
  const visit = (node, inherited) => {
    const { functionName, url } = node.callFrame;
    const own = url !== '' ? ownerOfUrl(url) : functionName.startsWith('(') ? functionName : inherited;
    ownerOf.set(node.id, own);
    for (const child of node.children ?? []) visit(byId.get(child), own);
  };
  visit(profile.nodes[0], 'native');

  let self;
  if (window === null) self = selfMicros(profile);
  else {
    self = new Map();
    let at = 0;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i + 1] ?? 0;
      at += profile.timeDeltas[i] ?? 0;
      if (at >= window.fromUs && at < window.toUs) self.set(id, (self.get(id) ?? 0) + delta);
    });
  }

  const owners = new Map();
  const functions = new Map();
  let busyUs = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    const owner = ownerOf.get(id);
    if (owner === IDLE) continue;
    busyUs += us;
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url === '' ? owner : `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'} ${where}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const sorted = (map) => [...map].sort((a, b) => b[1] - a[1]);
  return { busyUs, owners: sorted(owners), functions: sorted(functions) };
}
