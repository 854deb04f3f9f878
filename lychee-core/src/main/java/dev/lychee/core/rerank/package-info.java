/** Non-generative reranking of fused candidates from query, speaker and time features. */
package dev.lychee.core.rerank;
