import { Kbd } from '@mantine/core';

/** A key combination as stored ("Shift+B", "Alt+H", "Shift+/" shown as ?) drawn as keys. */
export function ComboKeys({ combo }: { combo: string }) {
  const parts = combo === 'Shift+/' ? ['?'] : combo.split('+');
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 ? ' + ' : null}
          <Kbd size="xs">{p}</Kbd>
        </span>
      ))}
    </span>
  );
}
