import { Heading, View } from '@aws-amplify/ui-react';
import { MSG } from '@shared/messages';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Spec §2.4 router fallback: 'Unexpected Application Error!' and the message. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <View as="main" padding="2rem" maxWidth="48rem" margin="0 auto">
      <Heading level={1} fontSize="1.5rem" color="red.80">
        {MSG.unexpectedAppError}
      </Heading>
      <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message}</pre>
      <a href="/home">Go to the home page</a>
    </View>
  );
}
