import { type HttpMethod, ROUTES, type Route } from './routes';

/**
 * Matches a request path to a route the way API Gateway REST APIs do: segment by segment, a literal
 * segment wins over a {param} sibling, and there is no backtracking. A route that API Gateway could not
 * reach is unreachable here too (a test walks the whole table through this matcher).
 */
interface Node {
  literals: Map<string, Node>;
  param?: { name: string; node: Node };
  methods: Map<HttpMethod, Route>;
}

const newNode = (): Node => ({ literals: new Map(), methods: new Map() });

export function buildRouter(routes: readonly Route[] = ROUTES) {
  const root = newNode();
  for (const r of routes) {
    let node = root;
    for (const seg of r.path.split('/').filter(Boolean)) {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (m) {
        const name = m[1]!;
        if (node.param && node.param.name !== name) {
          throw new Error(
            `route ${r.id}: API Gateway allows one parameter name per level ({${node.param.name}} vs {${name}})`,
          );
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.literals.get(seg);
        if (!next) {
          next = newNode();
          node.literals.set(seg, next);
        }
        node = next;
      }
    }
    if (node.methods.has(r.method)) throw new Error(`duplicate route ${r.method} ${r.path}`);
    node.methods.set(r.method, r);
  }

  return function match(
    method: string,
    path: string,
  ): { route: Route; params: Record<string, string> } | { error: 404 | 405 } {
    let node: Node | undefined = root;
    const params: Record<string, string> = {};
    for (const raw of path.split('/').filter(Boolean)) {
      let seg: string;
      try {
        seg = decodeURIComponent(raw);
      } catch {
        return { error: 404 };
      }
      const lit: Node | undefined = node.literals.get(seg);
      if (lit) node = lit;
      else if (node.param) {
        params[node.param.name] = seg;
        node = node.param.node;
      } else return { error: 404 };
    }
    const route = node.methods.get(method as HttpMethod);
    if (!route) return { error: node.methods.size > 0 ? 405 : 404 };
    return { route, params };
  };
}
