package loopsvc

// The blank import registers the gzip compressor in grpc-go's
// process-wide registry: the loop's server then accepts requests a client
// compressed with grpc.UseCompressor(gzip.Name) (grpc-encoding: gzip) and
// answers such a client gzip-compressed in turn. Without it grpc-go refuses
// them with Unimplemented ("Decompressor is not installed").
import _ "google.golang.org/grpc/encoding/gzip"
