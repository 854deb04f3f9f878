/**
 * The read pipeline: {@link dev.lychee.core.read.RecallPipeline} runs the planner, builds one
 * {@link dev.lychee.api.spi.RouteQuery} per route, runs every channel, scores each route (boosts
 * and source windows), fuses, reranks and selects. {@link dev.lychee.core.read.RetrievalModule}
 * binds the stages; this package sits above {@code recall}, {@code fuse}, {@code rerank} and
 * {@code select}, which never import it.
 */
package dev.lychee.core.read;
