import { NestedStack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes';
import { topSegment } from '../lib/constructs/api';
import { RESOURCE_BUDGET, ROUTE_STACKS, routesOfStack } from '../lib/portal-stack';
import { type Synthesized, synthPortal } from './support/synth';

/** Room to grow (decision 202): every template far below CloudFormation's 500 resources. */
let s: Synthesized;
beforeAll(() => {
  s = synthPortal();
});

describe('the stack and its nested stacks', () => {
  it(`keeps every template under ${RESOURCE_BUDGET} resources`, () => {
    const counts = Object.fromEntries(s.templates.map((t) => [t.path, Object.keys(t.json.Resources).length]));
    // one line in the test output, to see how much room is left
    console.info('resources per template', counts);
    for (const [path, n] of Object.entries(counts)) expect(n, path).toBeLessThan(RESOURCE_BUDGET);
    // the split is real: more than one template carries routes
    expect(s.templates.length).toBeGreaterThanOrEqual(1 + Object.keys(ROUTE_STACKS).length);
  });

  it('places every route in exactly one route stack, by the first segment of its path', () => {
    const placed = Object.keys(ROUTE_STACKS).flatMap((name) => routesOfStack(name).map((r) => r.id));
    expect(placed.sort()).toEqual(ROUTES.map((r) => r.id).sort());
    for (const name of Object.keys(ROUTE_STACKS)) {
      const nested = s.stack.nestedStacks.get(name);
      expect(nested, name).toBeInstanceOf(NestedStack);
      for (const route of routesOfStack(name)) {
        const fn = s.stack.api.functions.get(route.id)!;
        expect(NestedStack.of(fn), route.id).toBe(nested);
      }
    }
    const owners = new Map<string, string[]>();
    for (const [name, segments] of Object.entries(ROUTE_STACKS))
      for (const seg of segments) owners.set(seg, [...(owners.get(seg) ?? []), name]);
    for (const [seg, names] of owners) expect(names, seg).toHaveLength(1);
  });

  it('fails the synth for a route whose top-level path no route stack lists', () => {
    const stray = { ...ROUTES[0]!, id: 'stray', path: '/nowhere/x' };
    expect(() => routesOfStack('IdentityRoutes', [...ROUTES, stray])).toThrow(
      /stray \(\/nowhere\/x\): no route stack lists \/nowhere; add it to ROUTE_STACKS/,
    );
    expect(topSegment(stray)).toBe('nowhere');
  });

  it('keeps the stateful resources in the root stack (moving them would replace them)', () => {
    const root = s.templates[0]!;
    for (const type of [
      'AWS::DynamoDB::Table',
      'AWS::S3::Bucket',
      'AWS::KMS::Key',
      'AWS::SecretsManager::Secret',
    ])
      for (const t of s.templates.slice(1))
        expect(
          Object.values(t.json.Resources).filter((r) => r.Type === type),
          `${type} in ${t.path}`,
        ).toEqual([]);
    expect(Object.values(root.json.Resources).filter((r) => r.Type === 'AWS::DynamoDB::Table').length).toBe(
      6,
    );
  });

  it('deploys the API after every method of every route stack', () => {
    const deployment = Object.entries(s.templates[0]!.json.Resources).find(
      ([, r]) => r.Type === 'AWS::ApiGateway::Deployment',
    )!;
    const dependsOn = (deployment[1].DependsOn ?? []) as string[];
    for (const name of Object.keys(ROUTE_STACKS)) {
      const nested = s.stack.nestedStacks.get(name)!;
      expect(dependsOn, name).toContain(s.stack.getLogicalId(nested.nestedStackResource!));
    }
  });
});
