/** Runs Lakeside Lodge: `node --import tsx test/data/own-app/lodge/main.ts --port N`; stops on SIGTERM or SIGINT. */
import { runCloneCommand } from '../../../../fixtures/apps/kit/command.ts'
import { startLodge } from './app.ts'

await runCloneCommand({ name: 'lodge', start: startLodge, greeting: (url) => [`lodge listening on ${url}`] })
