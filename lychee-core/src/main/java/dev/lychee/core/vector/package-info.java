/**
 * Exact nearest-neighbour search: {@link dev.lychee.core.vector.ExactVectorIndex} over one dense
 * {@link dev.lychee.core.vector.VectorSlab} per (namespace, kind), and the vector checks shared by
 * durable indexes ({@link dev.lychee.core.vector.Vectors}).
 */
package dev.lychee.core.vector;
