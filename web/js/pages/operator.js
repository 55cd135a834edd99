// What the operator handles, on every page: the input (gamepads and the keys of the
// server's layout), the help overlay, the joystick mapping screen and the sticks' rumble.
// Its state is operatorState(), kept in the page's context as c.operator.

import { createInput, setKeyboardLayout, keyboardLayout } from '../input.js';
import { parseKeyboardLayout, keyHint } from '../keyboard.js';
import { createHelp } from '../help.js';
import { createMappingScreen } from '../mapping-ui.js';
import { makeRumbleTracker, loadRumbleEnabled, saveRumbleEnabled, RUMBLES } from '../haptics.js';

export function operatorState() {
  return {
    // why the keys cannot be used (no layout yet, or a bad one), null once they can
    keyboardError: 'not loaded yet',
    // haptic feedback: the sticks driving the crane rumble when an event counter rises
    rumbleOn: loadRumbleEnabled(window.localStorage),
    rumbleStats: { played: 0, muted: 0, last: null },
  };
}

export function createOperatorParts(c) {
  c.input = createInput({ target: document, storage: window.localStorage,
    getGamepads: () => navigator.getGamepads?.() ?? [] });
  const { look, qualityChoice } = c.gfx;
  c.help = createHelp({ dialog: document.getElementById('help'), button: document.getElementById('open-help'),
    input: c.input, layout: keyboardLayout, layoutError: () => c.operator.keyboardError,
    shortcuts: () => document.querySelectorAll('#view-buttons [data-view], #open-mapping'),
    quality: () => `Drawing quality: ${look.quality} (${qualityChoice.reason}). Add ?quality=low or ?quality=high to the page's address to choose.` });
  c.hud.note(`drawing quality: ${look.quality} (${qualityChoice.reason})`);
  c.rumbleTracker = makeRumbleTracker();
  c.mappingScreen = createMappingScreen({ dialog: document.getElementById('mapping'), input: c.input,
    storage: window.localStorage,
    rumble: {
      enabled: () => c.operator.rumbleOn,
      setEnabled(on) {
        c.operator.rumbleOn = Boolean(on);
        saveRumbleEnabled(window.localStorage, c.operator.rumbleOn);
      },
      test: () => c.input.rumble({ kind: 'hit', counter: null, startDelay: 0, ...RUMBLES.hit }),
    } });
}

// The keys: the server's layout (GET /api/client-config), shown in the header and the help.
export function useKeyboardLayout(c, raw) {
  try {
    if (raw === null) throw new Error('the server has none configured (--keyboard-file)');
    setKeyboardLayout(parseKeyboardLayout(raw));
    c.operator.keyboardError = null;
    document.getElementById('keys-hint').textContent = keyHint(keyboardLayout());
    c.page.layout(keyboardLayout());
  } catch (e) {
    keyboardUnavailable(c, e.message);
  }
}

export function keyboardUnavailable(c, why) {
  c.operator.keyboardError = why;
  document.getElementById('keys-hint').textContent = `Keys: not available (${why})`;
  c.hud.note(`keyboard: ${why}`);
}

// A rumble effect on the sticks driving the crane, unless switched off or the tab is hidden.
export function feel(c, effect) {
  const o = c.operator;
  if (!o.rumbleOn || document.hidden) {
    o.rumbleStats.muted += 1;
    return;
  }
  const devices = c.input.rumble(effect);
  o.rumbleStats.played += 1;
  o.rumbleStats.last = { kind: effect.kind, counter: effect.counter, devices };
}
