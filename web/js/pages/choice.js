// Which page index.html is, from its address. One page file serves three kinds of page:
//   ?replay=NAME   the debrief replay of a recorded run: nothing it does drives a machine
//   ?observe=ID    an instructor watching session ID, driving it only from the desk
//   otherwise      a trainee's live page: the dam task, a lesson world (?scenario=NAME), or
//                  a take-over of a replayed moment (?takeover=T, an instructor at the
//                  controls of a run that has its trainee: no name asked, no lesson offered)
// A replay wins over watching, and watching over a take-over, as the connection's URL has
// always been chosen. Pure, so the node tests can ask it.

import { observeParam } from '../observer.js';
import { replayParam, takeoverParam } from '../replay.js';

export const PAGE_KINDS = Object.freeze(['trainee', 'observer', 'replay']);

export function choosePage(search) {
  const replayRequest = replayParam(search);
  const observeId = observeParam(search);
  const takeoverTicket = takeoverParam(search);
  const kind = replayRequest !== null ? 'replay' : observeId !== null ? 'observer' : 'trainee';
  return {
    kind,
    replayRequest,
    observeId,
    // the ticket is good for the live page's first connection only (pages/trainee.js)
    takeoverTicket: kind === 'trainee' ? takeoverTicket : null,
    takeover: kind === 'trainee' && takeoverTicket !== null,
    // watching: the page asks no class code and no name, and restarts nothing
    watchOnly: kind !== 'trainee',
  };
}
