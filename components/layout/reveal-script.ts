/**
 * React 19's streaming runtime holds each streamed Suspense boundary until 300 ms after the page's first
 * paint (its `$RT` mark, FALLBACK_THROTTLE_MS, react/react#33076), so several boundaries arriving together
 * reveal in one paint. Lantern's pages stream one or two boundaries, and the first rows of a wallet were
 * held up to 300 ms after they had arrived. Pinned at a number far in the past (its setter ignores React's
 * updates), every boundary is revealed as soon as its content has arrived. Tiny, no imports; harmless if
 * a later React stops reading `$RT` (boundaries are then throttled as before).
 */
export const REVEAL_SCRIPT = `try{Object.defineProperty(window,'$RT',{configurable:true,get:function(){return -1e9},set:function(){}})}catch(e){}`;
