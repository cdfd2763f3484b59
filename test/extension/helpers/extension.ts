import * as vscode from 'vscode';
import { EXTENSION_ID } from '../../../src/extension/ids';

/** Our extension, activated (it activates on startup; this waits for that). */
export async function activatedExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this VS Code; check the harness's extensionDevelopmentPath`);
  await ext.activate();
  return ext;
}
