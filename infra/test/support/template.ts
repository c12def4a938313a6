import type { Synthesized } from './synth';

/** Walks of the synthesized template that several infra tests share (portal-stack, workers, generation). */
export type Json = Record<string, unknown>;
export type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** Every resource of a CloudFormation type: [logical id, properties]. */
export const resourcesOfType = (s: Synthesized, type: string): [string, Json][] =>
  Object.entries(s.json.Resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, (r.Properties ?? {}) as Json]);

/** Every statement of the policies attached to the role of a Lambda function (by its logical id). */
export function statementsOfFunction(s: Synthesized, fnLogicalId: string): Statement[] {
  const props = s.json.Resources[fnLogicalId]!.Properties as Json;
  const roleId = (props.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return resourcesOfType(s, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => (p.PolicyDocument as { Statement: Statement[] }).Statement);
}

export const actionsOf = (st: Statement): string[] => (Array.isArray(st.Action) ? st.Action : [st.Action]);
