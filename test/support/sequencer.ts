import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Project by project, and in each the files that take longest, longest first. vitest orders a
 * run by the durations it cached in the last one, and a fresh clone (CI, a newcomer) has none:
 * it falls back to project by project, larger files first, which started the longest file (the
 * bench's smoke run, a small file) four minutes into the run, with one worker idle at the end
 * while it finished. Started first, the long files overlap everything else. A project's files
 * stay together: vitest starts a new worker, which loads the SDK and the project's modules
 * again, whenever the next file is another project's. Order only: a file missing here runs
 * after these, in vitest's own order.
 */
const PROJECTS = ['own-process', 'suites', 'units'];

const LONGEST_FIRST = [
  'test/scripts/bench.test.ts',
  'test/reliability/health-alerts.test.ts',
  'test/reliability/deadline-cuts.test.ts',
  'test/reliability/scheduled-faults.test.ts',
  'test/integration/infection-alerter-resume.test.ts',
  'test/scripts/bench-steps.test.ts',
  'test/reliability/real-service-day.test.ts',
  // Two files that mostly wait (on a lease, on slow pages), apart: each beside one that computes.
  'test/integration/infection-alerter-recovery.test.ts',
  'test/reports/report-pages.test.ts',
  'test/integration/report-fetcher-jobs.test.ts',
  'test/reports/alert-section.test.ts',
  'test/infra/bundles.test.ts',
  'test/alerts/outbreak.test.ts',
  'test/infra/cloudformation-validation.test.ts',
  'test/aws/resumable-object.test.ts',
  'test/emulator/cli.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const project = (spec: TestSpecification) => {
      const index = PROJECTS.indexOf(spec.project.name);
      return index === -1 ? PROJECTS.length : index;
    };
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}
