// The instructor's fault form (docs/instructor.md "Faults you can inject"): built from the catalog
// the server sends in hello.observing.faults (the browser does not know the faults), and the
// parameters a filled-in form gives. Pure: no DOM.

// "burst_hose" -> "Burst hose"
export function faultTitle(name) {
  const words = String(name).replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The form's fields for one catalog entry: [{name, label, kind: 'choice'|'number', choices,
// min, max, step, value, help}].
export function faultFields(entry) {
  return (Array.isArray(entry?.params) ? entry.params : []).map((p) => {
    // "diameter_mm" in mm reads "diameter [mm]": the unit once
    const suffix = p.unit ? `_${p.unit.replace(/\//g, '_per_').replace(/ /g, '_')}` : '';
    const base = suffix && p.name.endsWith(suffix) ? p.name.slice(0, -suffix.length) : p.name;
    const label = `${base.replace(/_/g, ' ')}${p.unit ? ` [${p.unit}]` : ''}`;
    if (Array.isArray(p.choices)) {
      return { name: p.name, label, kind: 'choice', choices: p.choices, value: p.default ?? p.choices[0], help: p.help ?? '' };
    }
    const span = Number(p.max) - Number(p.min);
    const step = span > 0 && span <= 2 ? 0.05 : span <= 20 ? 0.5 : 1;
    return { name: p.name, label, kind: 'number', min: p.min, max: p.max, step, value: p.default, help: p.help ?? '' };
  });
}

// The params of a `fault` message from the form's values (strings, by name); numbers are
// sent as numbers, the server checks the ranges and names what is wrong.
export function faultParams(entry, values) {
  const params = {};
  for (const f of faultFields(entry)) {
    const v = values[f.name];
    if (v === undefined || v === '') continue;
    params[f.name] = f.kind === 'number' ? Number(v) : v;
  }
  return params;
}

// The target of an active fault (e.g. {function: 'boom'}), to clear just that one.
export function faultTarget(active, catalog) {
  const entry = catalog.find((e) => e.name === active.name);
  const key = entry?.target;
  return key && active.params?.[key] !== undefined ? { [key]: active.params[key] } : {};
}
