import { FIVE_RULES } from './bench/support/smart-links.js';
import { compileSmartLink, chooseDestination } from './src/domain/smart/choose-destination.js';
import { RequestVisitor } from './src/http/request-visitor.js';
import { readClickHeaders } from './src/http/click-headers.js';
import { isLinkCrawler } from './src/domain/link-crawlers.js';
import type { IncomingMessage } from 'node:http';
const UA='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const mk=()=>['Host','127.0.0.1:18580','User-Agent',UA+'','Accept','text/html,application/xhtml+xml','Accept-Language','en-US,en;q=0.9'.concat('')];
const link=compileSmartLink('abc', FIVE_RULES);
const sock={remoteAddress:'::ffff:127.0.0.1'};
const sources={countryHeader:undefined, countryOfAddress:(a:string)=>undefined as string|undefined, clientAddressOf:(r:IncomingMessage)=>r.socket.remoteAddress??''};
const reqs=Array.from({length:64},()=>({rawHeaders:mk(), url:'/abc', socket:sock, method:'GET'}) as unknown as IncomingMessage);
function bench(name:string, f:(r:IncomingMessage)=>unknown){ let x=0; for(let r=0;r<4;r++){const n=1_000_000; const t=process.hrtime.bigint(); for(let i=0;i<n;i++){ if(f(reqs[i&63]!))x++;} const ns=Number(process.hrtime.bigint()-t)/n; if(r===3)console.log(name, ns.toFixed(1),'ns');} return x;}
bench('choose', (r)=>chooseDestination(link.compiled ?? link as any, 'https://x', new RequestVisitor(r,'',Date.now(),sources), ()=>undefined, Math.random).destination);
bench('readClickHeaders', (r)=>readClickHeaders(r.rawHeaders, undefined).prefetch);
bench('crawler', (r)=>isLinkCrawler(r.rawHeaders[3]));
