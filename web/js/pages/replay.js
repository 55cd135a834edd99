// The debrief replay of a recorded run (?replay=NAME, docs/web-client.md "Debrief
// replay"): frames drawn as live, played, paused and sought from replay-ui.js, which holds
// what the run is and where it stands. Nothing it does drives a machine. Its state is
// replayPageState(): the replay's panels, whose .state is the replay's own.

import { replayUrl } from '../replay.js';
import { createReplayUi } from '../replay-ui.js';
import { deskState } from '../desk.js';

export function replayPageState(c) {
  return {
    ui: createReplayUi({ request: c.choice.replayRequest,
      send: (m) => c.connection.send(JSON.stringify(m)), go: (url) => location.assign(url), note: (t) => c.hud.note(t) }),
  };
}

// A replay refused (no such recording, no login, a bad ticket) is final.
function onClose(c, st, s) {
  if (s.code !== 1008) return false;
  st.ui.refused(s.rawReason || s.reason || 'refused by the server');
  c.connection.stop();
  return true;
}

export function createReplayPage(c) {
  const st = replayPageState(c);
  const toUi = (m) => st.ui.message(m);
  return {
    kind: 'replay',
    state: st,
    url: () => replayUrl(c.wsUrl, c.choice.replayRequest),
    // a recorded run: no name, no controls
    hello: (msg) => st.ui.hello(msg, msg.replay),
    // it skips frames when it seeks or plays fast: not a loss
    skipsFrames: true,
    // no rumble: nobody drives
    feels: false,
    playbackSpeed: () => st.ui.state?.speed ?? 1,
    watchingWords: () => 'Replay: your keys and joystick do nothing',
    restartRefusal: () => 'restart: this is a replay; "Take over from here" starts a live session',
    onClose: (s) => onClose(c, st, s),
    on: {
      display: (f) => st.ui.frame(f),
      replay_progress: toUi,
      replay_timeline: toUi,
      replay_state: toUi,
      take_over: toUi,
      error: (m) => st.ui.error(m),
    },
    api: { observing: null, observedVolts: null, get replay() { return st.ui.state ?? null; }, desk: deskState() },
  };
}
