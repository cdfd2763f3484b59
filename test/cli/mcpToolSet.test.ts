// Issue 23.4: --allow-scripts is decided once, where the MCP server's core is assembled (no executor without it); the
// tools offered and the refusal of a call to run_skill_script follow from the runtime having an executor, not from a
// flag copied into each part. Real cores over a temp folder; the adapter is given no flag at all.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createAgentSkills } from '../../src/core/agentSkills';
import { callMcpTool, mcpTools, type McpToolServices } from '../../src/cli/mcp/toolAdapter';
import { SkillContentCache } from '../../src/core/runtime/skillContent';
import { RUNTIME_TOOLS } from '../../src/core/tools/toolNames';
import { makeTempDir } from '../support/tempDir';

describe('agent-skills mcp: the script tool follows from the executor (decided once)', function () {
  this.timeout(30_000);

  it('offers run_skill_script exactly when the runtime has an executor, and refuses the call naming --allow-scripts otherwise', async () => {
    const tmp = makeTempDir('mcp-toolset-');
    try {
      const open = async (withExecutor: boolean) => {
        const core = createAgentSkills({ stateDir: path.join(tmp.dir, `state-${withExecutor}`), roots: [], runtime: { audit: false }, ...(withExecutor ? {} : { executor: () => undefined }) });
        const catalog = await core.catalog();
        return { core, services: { runtime: core.tools(), catalog, surface: 'standard', readOnly: false } satisfies McpToolServices };
      };
      const run = RUNTIME_TOOLS.run_script.name;
      const withRunner = await open(true);
      const without = await open(false);
      assert.equal(withRunner.core.tools().runsScripts, true);
      assert.equal(without.core.tools().runsScripts, false);
      assert.ok(mcpTools(withRunner.services).some((t) => t.name === run), 'a runtime with an executor offers the script tool');
      assert.ok(!mcpTools(without.services).some((t) => t.name === run), 'a runtime without one does not');
      const content = new SkillContentCache(without.core.host);
      await assert.rejects(callMcpTool(without.services, run, { skill: 'x', script: 'a.sh' }, { sessionId: 's' }, content), /it was started without --allow-scripts/);
      await withRunner.core.dispose();
      await without.core.dispose();
    } finally {
      tmp.cleanup();
    }
  });
});
