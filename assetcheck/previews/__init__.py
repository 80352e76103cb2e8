"""Preview pictures of model files, drawn on the server with numpy: the worker draws them
after a validation (:func:`~assetcheck.previews.drawing.write_previews`), the dashboard serves
them (:func:`~assetcheck.previews.drawing.preview_path`)."""
