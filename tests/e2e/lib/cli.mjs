// The `damas` command-line tool: the engine's own answer, independent of the app and its UI.
import { execFileSync } from 'node:child_process';

export class Cli {
  constructor(binary) {
    this.binary = binary;
  }

  /** Runs `damas ...args` and returns its standard output (throws on a non-zero exit). */
  run(...args) {
    return execFileSync(this.binary, args.map(String), { encoding: 'utf8', timeout: 60000 });
  }
}
