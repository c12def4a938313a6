import { TableCell } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';

export type HeaderDepth = 'top' | 'member' | 'entry';

/** The Name cell of a header row; the field's title is its tooltip (spec §3). */
export function HeaderNameCell({
  name,
  title,
  depth = 'top',
  extra,
  colSpan,
}: {
  name: string;
  title?: string;
  depth?: HeaderDepth;
  extra?: ReactNode;
  colSpan?: number;
}) {
  return (
    <TableCell as="th" scope="row" className={`frp-hdr-name frp-hdr-name--${depth}`} colSpan={colSpan}>
      <span className="frp-hdr-name__label" title={title}>
        {name}
        {title ? (
          <span className="frp-hdr-info" role="img" aria-label={title} title={title}>
            i
          </span>
        ) : null}
      </span>
      {extra ? <div className="frp-muted">{extra}</div> : null}
    </TableCell>
  );
}
