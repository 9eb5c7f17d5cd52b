-- Photos sized for phones (DESIGN.md, "Images"): every raster photo is processed once, when it
-- enters, into a few widths in AVIF, WebP and a JPEG (or PNG, when it has transparency) fallback.
-- The derivatives are recorded beside their business_images row, so a build never decodes a photo.

alter table public.business_images
  add column width integer check (width is null or width > 0),
  add column height integer check (height is null or height > 0),
  add column placeholder text,
  add column variants jsonb not null default '[]'::jsonb check (jsonb_typeof(variants) = 'array');

comment on column public.business_images.width is 'Intrinsic width in pixels, after EXIF orientation; null until processed (or for an SVG without a size).';
comment on column public.business_images.height is 'Intrinsic height in pixels, after EXIF orientation.';
comment on column public.business_images.placeholder is 'A ThumbHash of the picture (base64), shown until the image loads; null until processed.';
comment on column public.business_images.variants is
  'Responsive derivatives: [{format: avif|webp|jpeg|png, width, height, url, bytes}], never wider than the original; [] until processed.';
