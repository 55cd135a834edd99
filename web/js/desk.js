// The instructor's desk in observer mode (docs/instructor.md): who drives the
// watched machine, what this instructor may ask for, in words. Pure: no DOM, no socket.
// The server decides (it holds the arbitration); this only keeps what it said.

// The desk's state from the server's `control` and `control_answer` messages.
export function deskState() {
  return { mode: 'trainee', holder: null, you: false, waiting: 0, inLine: false, answer: null };
}

export function onControl(state, m) {
  const inLine = m.you ? false : state.inLine && m.waiting > 0;
  return { ...state, mode: m.mode, holder: m.holder, you: m.you, waiting: m.waiting, inLine };
}

export function onAnswer(state, a) {
  const inLine = a.result === 'waiting' ? true : a.result === 'granted' || a.result === 'released' ? false : state.inLine;
  return { ...state, inLine, answer: a };
}

const MODE_WORDS = { exclusive: 'exclusive control', shared: 'dual control' };

// The status line: who drives and what this instructor's keys do.
export function deskStatus(s) {
  if (s.you && s.mode === 'exclusive') return 'You drive (exclusive control): your keys and joystick move the machine; the trainee\u2019s are ignored';
  if (s.you && s.mode === 'shared') return 'Dual control: where your keys or joystick move, they override the trainee\u2019s';
  const line = s.inLine ? ' You are waiting in line.' : s.waiting > 0 ? ` ${s.waiting} waiting.` : '';
  if (s.mode !== 'trainee') return `${s.holder ?? 'An instructor'} has ${MODE_WORDS[s.mode]}.${line}`;
  return `The trainee drives.${line}`;
}

// The buttons: what each would ask for, and whether it makes sense now. A held machine
// offers to wait in line instead of a bare refusal.
export function deskButtons(s) {
  const heldByOther = s.mode !== 'trainee' && !s.you;
  const wait = heldByOther;
  return [
    { id: 'take', label: wait ? 'Wait to take control' : 'Take control', request: 'take_control', wait,
      disabled: (s.you && s.mode === 'exclusive') || s.inLine,
      title: 'Drive the machine yourself; the trainee\u2019s stick is ignored' },
    { id: 'share', label: wait ? 'Wait for dual control' : 'Dual control', request: 'share_control', wait,
      disabled: (s.you && s.mode === 'shared') || s.inLine,
      title: 'Like a dual-control car: your moved axes override the trainee\u2019s' },
    { id: 'release', label: s.inLine ? 'Leave the line' : 'Hand back', request: 'release_control', wait: false,
      disabled: !s.you && !s.inLine, title: 'The trainee drives again' },
  ];
}

// Whether this page's keys and joystick are sent to the server.
export function instructorDrives(s) {
  return s.you && s.mode !== 'trainee';
}
