import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { FINISH_DESCRIPTION, FinishRequest, servedActions, Thought } from './actions.ts'
import { ComputerAction } from '../schema/action.ts'
import type { ServedTask } from './served-task.ts'

/** What an MCP client is told when it connects: the goal and the limits, nothing else. */
export function instructionsFor(served: ServedTask): string {
  const { task } = served
  return [
    `Task: ${task.goal}`,
    `Screen: ${task.screen.width}x${task.screen.height} pixels (${task.environment}). Budget: ${task.max_steps} actions, ${Math.round(task.timeout_ms / 1000)} s.`,
    'Take a screenshot to see the screen; every other tool is one action. Call finish with your answer when you are done.',
  ].join('\n')
}

/**
 * One MCP server for one request (the transport is stateless, so a client may reconnect at will);
 * every tool acts on the same served task.
 */
function mcpServerFor(served: ServedTask): McpServer {
  const server = new McpServer({ name: 'agentest-computer', version: '1.0.0' }, { instructions: instructionsFor(served) })
  server.registerTool(
    'screenshot',
    { description: 'The screen now, as a PNG image. Not an action: it costs no step.', inputSchema: z.object({}).strict() },
    async () => run(async () => ({ content: [{ type: 'image', data: (await served.screenshot()).toString('base64'), mimeType: 'image/png' }] })),
  )
  for (const action of servedActions(served.computer)) {
    server.registerTool(action.type, { description: action.description, inputSchema: action.args }, async (args: Record<string, unknown>) =>
      run(async () => {
        const { thought, ...fields } = args as { thought?: string }
        const parsed = ComputerAction.parse({ type: action.type, ...fields })
        const done = await served.act(parsed, Thought.parse(thought))
        return { content: [{ type: 'text', text: `step ${done.step}: ${done.did}${done.url ? ` (now at ${done.url})` : ''}` }] }
      }),
    )
  }
  server.registerTool(
    'finish',
    {
      description: FINISH_DESCRIPTION,
      inputSchema: FinishRequest,
    },
    async (args: FinishRequest) =>
      run(async () => {
        await served.finish(args)
        return { content: [{ type: 'text', text: 'finished' }] }
      }),
  )
  return server
}


async function run(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work()
  } catch (error) {
    return { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true }
  }
}

/** Answers one Streamable HTTP request (POST, GET or DELETE on /mcp). */
export async function handleMcp(served: ServedTask, request: Request): Promise<Response> {
  const server = mcpServerFor(served)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    // The JSON response is complete once returned: nothing stays open per request.
    void server.close()
  }
}
