"""Preview pictures of model files, drawn on the server on the CPU: the worker draws them
as a validation ends (:class:`~assetcheck.previews.drawing.PreviewWriter`) into the job's
working folder, the job's storage keeps them, the dashboard serves them by their stored name
(:func:`~assetcheck.previews.job_files.model_file_name`)."""

#: The folder of a job's pictures, beside its upload.
PREVIEW_FOLDER = "previews"
