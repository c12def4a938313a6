import { setupServer } from 'msw/node';
import { handlers } from './handlers';

/** The same handlers as mock mode, for the component tests. */
export const server = setupServer(...handlers);
