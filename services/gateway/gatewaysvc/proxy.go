package gatewaysvc

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// runProxy will forward RunService to the loop and fan out event streams.
// Until then every RPC answers Unimplemented through the embedded type.
type runProxy struct {
	glv1.UnimplementedRunServiceServer
}

// blobProxy will forward BlobService to the loop's blob store.
type blobProxy struct {
	glv1.UnimplementedBlobServiceServer
}

var (
	_ glv1.RunServiceServer  = (*runProxy)(nil)
	_ glv1.BlobServiceServer = (*blobProxy)(nil)
)
