export * from './types';
export { parseSkillFile } from './parseSkillFile';
export { TextIndex } from './textIndex';
