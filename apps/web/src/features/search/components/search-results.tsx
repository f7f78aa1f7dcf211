import { useLingui } from '@lingui/react/macro';
import type { Option } from '../lib/dropdown-options';
import styles from './search-box.module.css';
import { SearchOption } from './search-option';

interface SearchResultsProps {
  baseId: string;
  options: readonly Option[];
  optionId: (index: number) => string;
  activeIndex: number;
  q: string;
  onHighlight: (index: number) => void;
  onChoose: (option: Option) => void;
}

/**
 * The header dropdown's options, grouped: a lookup on another server, people, tags, posts, then "See all results". Its own chunk, loaded
 * with the first answer (search-box.tsx): every page has the search box, few first visits type in it.
 */
export default function SearchResults({
  baseId,
  options,
  optionId,
  activeIndex,
  q,
  onHighlight,
  onChoose,
}: SearchResultsProps) {
  const { t } = useLingui();
  const renderOption = (option: Option) => {
    const index = options.indexOf(option);
    return (
      <SearchOption
        key={option.key}
        option={option}
        id={optionId(index)}
        selected={index === activeIndex}
        q={q}
        onHighlight={() => onHighlight(index)}
        onChoose={() => onChoose(option)}
      />
    );
  };
  const group = (kind: Option['kind'], label: string) => {
    const shown = options.filter((option) => option.kind === kind);
    return (
      shown.length > 0 && (
        <div role="group" aria-labelledby={`${baseId}-${kind}`} className={styles.group}>
          <div role="presentation" id={`${baseId}-${kind}`} className={styles.groupLabel}>
            {label}
          </div>
          {shown.map(renderOption)}
        </div>
      )
    );
  };
  const allOption = options.find((option) => option.kind === 'all');
  return (
    <>
      {group('lookup', t`On another server`)}
      {group('user', t`People`)}
      {group('tag', t`Tags`)}
      {group('post', t`Posts`)}
      {allOption && renderOption(allOption)}
    </>
  );
}
