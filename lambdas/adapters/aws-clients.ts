import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * One client per service per module instance (created once, reused across invocations). Endpoints come
 * from the standard AWS_ENDPOINT_URL_* variables, so the same code talks to AWS and to the emulators.
 */
let doc: DynamoDBDocumentClient | undefined;
export function dynamo(): DynamoDBDocumentClient {
  doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 3 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return doc;
}
