// What an instructor changes, on the screen: a banner while an instructor drives
// the trainee's machine (the server's own sentence), and the instructor's messages as a
// notice that stays long enough to read. The words come from the server.

import { setText } from './dom.js';

const MESSAGE_MS = 12000;   // a 200-character message read twice over

export function createInstructorNotices({ banner, toast, setTimer = setTimeout, clearTimer = clearTimeout }) {
  let timer = null;
  let current = { mode: 'trainee', text: '' };
  function hideToast() {
    toast.hidden = true;
    timer = null;
  }
  return {
    // who drives now, as the last `control` said: the HUD's controls line tells the trainee
    get state() { return current; },
    control(m) {
      current = { mode: m.mode, text: m.text };
      banner.hidden = m.mode === 'trainee';
      banner.dataset.mode = m.mode;
      setText(banner, m.text);
    },
    message(m) {
      toast.replaceChildren();
      const from = document.createElement('strong');
      from.textContent = `${m.from}: `;
      toast.append(from, m.text);
      toast.hidden = false;
      if (timer !== null) clearTimer(timer);
      timer = setTimer(hideToast, MESSAGE_MS);
    },
    reset() {
      current = { mode: 'trainee', text: '' };
      banner.hidden = true;
      if (timer !== null) clearTimer(timer);
      hideToast();
    },
  };
}
