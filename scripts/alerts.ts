import { main } from './alerts/main.js';
import { runCommand } from './run-command.js';

// The commands' work is in scripts/alerts/.
runCommand('alerts', (argv, io) => main(argv, io));
