// The sound control in the header (docs/web-client.md "Sound"): a mute button and a volume slider,
// both remembered in localStorage, and a hint until the first key or click lets the page
// play sound at all (the browsers' autoplay rule).

export function createSoundUi({ doc, sound }) {
  const button = doc.getElementById('sound-toggle');
  const slider = doc.getElementById('sound-volume');
  function show() {
    const s = sound.settings;
    const on = !s.muted && s.volume > 0;
    button.textContent = on ? '♪ On' : '♪ Off';
    button.setAttribute('aria-pressed', String(on));
    button.title = sound.started || !on ? 'Mute or unmute the machine\'s sound'
      : 'Sound starts at your first key or click (browsers allow no sound before)';
    slider.value = String(Math.round(s.volume * 100));
    slider.disabled = s.muted;
  }
  button.addEventListener('click', () => {
    sound.setMuted(!sound.settings.muted);
    show();
  });
  slider.addEventListener('input', () => {
    sound.setVolume(Number(slider.value) / 100);
    show();
  });
  // the first gesture starts the sound: the button's hint changes
  for (const type of ['keydown', 'pointerdown']) doc.addEventListener(type, () => setTimeout(show, 50));
  show();
  return { show };
}
