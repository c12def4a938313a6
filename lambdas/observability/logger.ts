import { Logger } from '@aws-lambda-powertools/logger';
import { mapStacksFromSourceMaps } from './source-mapped-stacks';

/**
 * Structured logs (Powertools for AWS Lambda's Logger: one JSON object a line, as CloudWatch Logs
 * Insights reads them). One logger per Lambda: a module instance serves one route (or one worker), and
 * the first route or worker that asks names it, so `service` is the route id. The local server runs every
 * route in one process; there the `route` key of each line names its route.
 *
 * Never log a password, token, secret or request body: name what happened and the ids it concerns.
 */
let instance: Logger | undefined;
let instanceName: string | undefined;

/**
 * Where the local stack says which function is running (it runs every route and worker in one process,
 * each invocation inside its own async scope). Unset in AWS, where one process is one function.
 */
let currentFunction: (() => string | undefined) | undefined;
const perFunction = new Map<string, Logger>();

/** The local stack names the function of each invocation, so every log line says who wrote it. */
export function nameFunctionsBy(source: (() => string | undefined) | undefined): void {
  currentFunction = source;
}

/** This Lambda's logger, named after the route or worker id given first (`loggerFor`). */
export function logger(): Logger {
  if (!instance) named('firmware-release-portal');
  const name = currentFunction?.();
  if (!instance || !name || name === instanceName) return instance!;
  let child = perFunction.get(name);
  if (!child) {
    child = instance.createChild({ serviceName: name });
    perFunction.set(name, child);
  }
  return child;
}

/** This Lambda's logger, named `serviceName` if nothing named it before (route() and the workers call it). */
export function loggerFor(serviceName: string): Logger {
  if (!instance) named(serviceName);
  return currentFunction ? logger() : instance!;
}

function named(serviceName: string): void {
  // in a Lambda the logged stacks name the source's file:line, mapped when one is formatted (decision 349)
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) mapStacksFromSourceMaps();
  instance = new Logger({ serviceName });
  instanceName = serviceName;
}
