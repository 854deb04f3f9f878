/**
 * Non-generative reranking of fused candidates from query, speaker and time features
 * ({@link dev.lychee.core.rerank.FeatureReranker}, weighted by
 * {@link dev.lychee.core.rerank.RerankWeights}).
 */
package dev.lychee.core.rerank;
