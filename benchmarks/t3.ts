import { syntheticHistory, appendedMessage } from './src/shared/synthetic-history.ts';
import { createCompactionSession, tiktokenCounter } from '@compaction/core';
for (const n of [2000, 10000]) {
  const h = syntheticHistory(n);
  const s = createCompactionSession({ sessionId: 'b', settings: { contextWindow: 10_000_000 } });
  await s.append(h);
  let t = performance.now(); await s.prepare(); console.log(n, 'cold', (performance.now() - t).toFixed(1));
  let next = h.length;
  const times: number[] = []; const times0: number[] = [];
  for (let i = 0; i < 300; i++) {
    t = performance.now(); await s.append(appendedMessage(next++)); await s.prepare(); times.push(performance.now() - t);
    t = performance.now(); await s.prepare(); times0.push(performance.now() - t);
  }
  times.sort((a, b) => a - b); times0.sort((a, b) => a - b);
  console.log(n, 'append+prepare med', times[150]!.toFixed(4), 'prepare-only med', times0[150]!.toFixed(4));
  // adapter-style
  const s2 = createCompactionSession({ sessionId: 'c', persistHistory: false, settings: { contextWindow: 10_000_000 } });
  let msgs = syntheticHistory(n); await s2.prepare({ messages: msgs });
  next = msgs.length; const t2: number[] = [];
  for (let i = 0; i < 300; i++) { msgs = [...msgs, appendedMessage(next++)]; t = performance.now(); await s2.prepare({ messages: msgs }); t2.push(performance.now() - t); }
  t2.sort((a, b) => a - b); console.log(n, 'prepare({messages}) med', t2[150]!.toFixed(4));
}
const c = tiktokenCounter(); const m = appendedMessage(5); const txt = (m.parts[0] as {text:string}).text;
const tt: number[] = []; for (let i = 0; i < 2000; i++) { const t = performance.now(); c.countText(txt); tt.push(performance.now() - t); } tt.sort((a,b)=>a-b); console.log('count one msg', tt[1000]);
