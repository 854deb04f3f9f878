/**
 * Plan-guided multi-route recall: the {@link dev.lychee.core.recall.RetrievalConfig}, the recall
 * channels (record vector, evidence node, temporal range, raw turn, lexical), per-route scoring with
 * source windows, and the {@link dev.lychee.core.recall.RecallPipeline} that runs plan, channels,
 * fusion, reranking and selection.
 */
package dev.lychee.core.recall;
