import type { Position } from '../../api/contracts/trading';
import { pnlPercent } from '../shared/trading/format';

/**
 * The share-profit card (FF_ENABLE_SHARE_PROFIT_CARD): pair, side, leverage, entry, mark and PnL %
 * drawn on a canvas and downloaded as a PNG. No balance, size or money amount is on it.
 */
export function drawShareCard(canvas: HTMLCanvasElement, p: Position, productName: string): void {
  const w = 600;
  const h = 320;
  canvas.width = w;
  canvas.height = h;
  const g = canvas.getContext('2d');
  if (!g) return;
  const up = !p.unrealisedPnl.startsWith('-');
  g.fillStyle = '#14161c';
  g.fillRect(0, 0, w, h);
  g.fillStyle = '#9aa0a6';
  g.font = '16px sans-serif';
  g.fillText(productName, 28, 40);
  g.fillStyle = '#ffffff';
  g.font = 'bold 34px sans-serif';
  g.fillText(p.symbol, 28, 96);
  g.fillStyle = p.side === 'BUY' ? '#12b886' : '#fa5252';
  g.font = 'bold 20px sans-serif';
  g.fillText(`${p.side === 'BUY' ? 'LONG' : 'SHORT'} ${p.leverage}×`, 28, 130);
  g.fillStyle = up ? '#12b886' : '#fa5252';
  g.font = 'bold 64px sans-serif';
  g.fillText(pnlPercent(p.unrealisedPnl, p.margin).replace(' ', ''), 28, 215);
  g.fillStyle = '#9aa0a6';
  g.font = '18px sans-serif';
  g.fillText(`Entry ${p.entryPrice}`, 28, 270);
  g.fillText(`Mark ${p.markPrice}`, 300, 270);
}

export function downloadShareCard(p: Position, productName: string): void {
  const canvas = document.createElement('canvas');
  drawShareCard(canvas, p, productName);
  const a = document.createElement('a');
  a.download = `${p.symbol}-${p.side === 'BUY' ? 'long' : 'short'}.png`;
  a.href = canvas.toDataURL('image/png');
  a.click();
}
