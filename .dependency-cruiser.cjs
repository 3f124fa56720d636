/**
 * The floors of src/ (docs/design.md §0): each may import only from the floors below it.
 * `npm run lint` runs this; test/architecture/floors.test.ts proves that it fails on an
 * upward import and on a cycle.
 */
const FLOORS = ['util', 'contract', 'metrics', 'engine', 'drivers', 'report', 'orchestration', 'cli'];
/** The reference service stands apart: it uses only the ground floors, and only these use it. */
const SERVICE = 'reference-service';
const SERVICE_USERS = ['orchestration', 'cli'];
const SERVICE_USES = ['util', 'contract'];

const upward = FLOORS.map((floor, i) => ({
  name: `no-upward-from-${floor}`,
  comment: `src/${floor}/ may import only from the floors below it (${FLOORS.slice(0, i).join(', ') || 'none'})`,
  severity: 'error',
  from: { path: `^src/${floor}/` },
  to: { path: `^src/(${[...FLOORS.slice(i + 1), ...(SERVICE_USERS.includes(floor) ? [] : [SERVICE])].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'reference-service-stands-apart',
      comment: `src/${SERVICE}/ may import only from ${SERVICE_USES.join(', ')}`,
      severity: 'error',
      from: { path: `^src/${SERVICE}/` },
      to: { path: `^src/(?!(${[SERVICE, ...SERVICE_USES].join('|')})/)`, pathNot: '^src/types/' },
    },
    {
      name: 'no-circular',
      comment: 'import cycles make the floors meaningless',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
