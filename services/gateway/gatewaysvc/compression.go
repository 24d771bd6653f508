package gatewaysvc

// The blank import registers the gzip compressor in grpc-go's
// process-wide registry: the gateway's server then accepts requests a
// client compressed with grpc.UseCompressor(gzip.Name) (grpc-encoding:
// gzip) and answers such a client gzip-compressed in turn (grpc-go
// answers in the compression of the request). Without it grpc-go refuses
// compressed requests with Unimplemented ("Decompressor is not
// installed"). HTTP/JSON clients get the same through the transcoder: a
// gzip request (Content-Encoding for Connect unary, Connect-Content-Encoding
// for streams) reaches the server compressed, and the gzip answer goes
// back as is.
import _ "google.golang.org/grpc/encoding/gzip"
