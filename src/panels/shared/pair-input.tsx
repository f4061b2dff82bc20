import { Autocomplete } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { chartSymbolSchema } from '../../state/chart-links';

export interface PairInputProps {
  value: string;
  /** Pairs offered while typing (the exchange's listing, favourites first). */
  suggestions: readonly string[];
  onCommit: (symbol: string) => void;
}

/**
 * The pair of a chart: pick from the exchange's pairs or type one (Enter). While the listing is not
 * loaded any well-formed symbol is accepted; a typo is answered by the chart's data error, which
 * names the exchange's own message (SPEC §8).
 */
export function PairInput({ value, suggestions, onCommit }: PairInputProps) {
  const [text, setText] = useState(value);
  const optionSubmitted = useRef(false);
  useEffect(() => setText(value), [value]);

  const commit = (raw: string) => {
    optionSubmitted.current = true;
    const symbol = raw.trim().toUpperCase();
    if (symbol !== value && chartSymbolSchema.safeParse(symbol).success) onCommit(symbol);
    else setText(value);
  };

  return (
    <Autocomplete
      aria-label="Pair"
      size="xs"
      w={150}
      value={text}
      data={suggestions as string[]}
      limit={50}
      maxDropdownHeight={280}
      onChange={(next) => setText(next.toUpperCase())}
      onOptionSubmit={commit}
      onFocus={(event) => event.currentTarget.select()}
      onBlur={() => setText(value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          // Enter on a highlighted option submits that option in this same event: commit the typed
          // text only when it did not.
          const typed = event.currentTarget.value;
          optionSubmitted.current = false;
          queueMicrotask(() => {
            if (!optionSubmitted.current) commit(typed);
          });
        }
        if (event.key === 'Escape') setText(value);
      }}
      spellCheck={false}
      autoComplete="off"
    />
  );
}
