/**
 * The built-in recall channels (record vector, evidence node, temporal range, raw turn, lexical)
 * and the settings they share ({@link dev.lychee.core.recall.ChannelBudgets},
 * {@link dev.lychee.core.recall.ChannelWeights}). Channels read their inputs from the
 * pipeline's {@link dev.lychee.api.spi.RouteQuery} and know nothing of the stages after them.
 */
package dev.lychee.core.recall;
