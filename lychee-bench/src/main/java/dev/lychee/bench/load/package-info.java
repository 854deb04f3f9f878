/** The server load run: Lychee behind its HTTP server, driven by concurrent clients, beside in-process recall. */
package dev.lychee.bench.load;
