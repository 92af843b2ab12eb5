import { describe, expect, it } from 'vitest';
import type { ObservedJob } from '../../scripts/rehearse-k8s/node.ts';
import { differences, operatorJobs } from '../../scripts/rehearse-k8s/observed.ts';

const job = (
  name: string,
  role: ObservedJob['role'],
  command: string[],
  env: unknown[] = [],
): ObservedJob => ({
  name,
  role,
  seenAtMs: 0,
  spec: { template: { spec: { containers: [{ name: 'k6', command, env }] } } },
});

describe('operatorJobs', () => {
  it('keeps each role apart and orders runners by their number, not as text', () => {
    const jobs = [
      job('t-starter', 'starter', ['sh', '-c', 'curl']),
      job('t-10', 'runner', ['k6', 'run', '10']),
      job('t-2', 'runner', ['k6', 'run', '2'], [{ name: 'A', value: '1' }]),
      job('t-initializer', 'initializer', ['sh', '-c', 'k6 archive']),
    ];
    const observed = operatorJobs(jobs, new Map());
    expect(observed.runners.map((runner) => runner.name)).toEqual(['t-2', 't-10']);
    expect(observed.runners[0]?.env).toEqual(['A']);
    expect(observed.initializer?.command).toEqual(['sh', '-c', 'k6 archive']);
    expect(observed.starter?.name).toBe('t-starter');
    expect(observed.operator.commit).toBe('e2c9571ac480ad7ca8ed019062ff67847d76724e');
  });

  it('leaves out a role the operator never created', () => {
    expect(operatorJobs([job('t-1', 'runner', [])], new Map()).starter).toBeUndefined();
  });

  it('writes each Service IP as the reference does, and the resumes in runner order, so runs compare', () => {
    const curl = 'curl http://127.0.96.12:6565/v1/status;curl http://127.0.96.1:6565/v1/status';
    const observed = operatorJobs(
      [job('t-starter', 'starter', ['sh', '-c', curl])],
      new Map([
        ['127.0.96.1', 't-service-1'],
        ['127.0.96.12', 't-service-2'],
      ]),
    );
    expect(observed.starter?.command[2]).toBe(
      'curl http://<ClusterIP of t-service-1>:6565/v1/status;curl http://<ClusterIP of t-service-2>:6565/v1/status',
    );
  });
});

describe('differences', () => {
  it('names every differing leaf with its path, keys the reference lacks and extra array items included', () => {
    const observed = { runners: [{ command: ['k6', 'run', '--paused'] }], extra: 1 };
    const reference = { runners: [{ command: ['k6', 'run'] }, { command: [] }], notes: 'from the source' };
    expect(differences(observed, reference)).toEqual([
      '$.runners[0].command[2]: observed "--paused" <> reference undefined',
      '$.runners[1]: observed undefined <> reference {"command":[]}',
      '$.extra: observed 1 <> reference undefined',
    ]);
  });

  it('finds none between equal documents, and tells an array from an object', () => {
    expect(differences({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] })).toEqual([]);
    expect(differences({ a: [] }, { a: {} })).toEqual(['$.a: observed [] <> reference {}']);
  });
});
