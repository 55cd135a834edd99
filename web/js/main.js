// clamsim browser client: index.html is one of three pages, chosen by its address
// (pages/choice.js): a trainee's live page, an instructor watching a session, or the
// debrief replay of a recorded run. What they share is in pages/client.js; each kind's own
// part, with its own state, in pages/trainee.js, pages/observer.js and pages/replay.js.

import { choosePage } from './pages/choice.js';
import { startClient } from './pages/client.js';
import { createTraineePage } from './pages/trainee.js';
import { createObserverPage } from './pages/observer.js';
import { createReplayPage } from './pages/replay.js';

const PAGES = { trainee: createTraineePage, observer: createObserverPage, replay: createReplayPage };

const choice = choosePage(location.search);
startClient(choice, PAGES[choice.kind]);
